/** Spread into an endpoint spec that answers 204 with no body. */
export const noContentSpec = { successStatus: 204 } as const;
