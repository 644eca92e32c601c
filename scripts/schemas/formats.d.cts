export const PLAIN_HTTP_URI: RegExp;
export const formats: Record<string, ((value: string) => boolean) | RegExp | object>;
