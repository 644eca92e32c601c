/** 0, 0.1, …, 5: a rating has at most one decimal (D3). An enum, not a float multipleOf, so every validator agrees. */
export const RATING_VALUES: readonly number[] = Array.from({ length: 51 }, (_, i) => Number((i / 10).toFixed(1)));
