export async function syncAutomod(_userId: string, _communityId: string): Promise<void> {}
