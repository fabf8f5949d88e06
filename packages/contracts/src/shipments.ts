export const shipmentsEndpoints = [] as const;
