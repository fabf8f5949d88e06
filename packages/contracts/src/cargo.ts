export const cargoEndpoints = [] as const;
