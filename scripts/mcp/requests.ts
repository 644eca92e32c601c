// Tool arguments → the request target the HTTP API would get for them, below the base path. Pure.

export interface ListSoftwareArgs {
  category?: string;
  limit?: number;
  offset?: number;
}

/** `/software?category=crm&limit=5`: only the parameters given, so defaults stay the API's own. */
export function listSoftwareTarget({ category, limit, offset }: ListSoftwareArgs): string {
  const query = [
    ...(category !== undefined ? [`category=${encodeURIComponent(category)}`] : []),
    ...(limit !== undefined ? [`limit=${limit}`] : []),
    ...(offset !== undefined ? [`offset=${offset}`] : []),
  ];
  return query.length === 0 ? "/software" : `/software?${query.join("&")}`;
}

export const softwareTarget = (slug: string) => `/software/${encodeURIComponent(slug)}`;
export const categoriesTarget = () => "/categories";
export const bestTarget = (category: string) => `/best/${encodeURIComponent(category)}`;
/** The query as given (the input schema holds it to what the API accepts): search answers the raw value. */
export const searchTarget = (q: string) => `/search?q=${encodeURIComponent(q)}`;
