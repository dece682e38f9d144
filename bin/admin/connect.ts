import { resolve } from 'node:path';
import { ensureTable, startDynamo } from '#bin/local/dynamo';
import { LOCAL_TABLE, useLocalTable } from '#bin/local/runtime';
import { recordedLocalEndpoint } from '#bin/local/endpointFile';

export const DATA_DIR = resolve(process.cwd(), '.data', 'dynamodb');

async function reachable(endpoint: string): Promise<boolean> {
  try {
    await fetch(endpoint, { method: 'POST', signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Where admin commands write: a deployed table when TABLE_NAME is set without DYNAMODB_ENDPOINT
 * (AWS credentials from the environment); that table at that endpoint when both are set; otherwise
 * the local server's database, started here for the length of the command when the server is not running.
 */
export async function connectAdmin(): Promise<{ target: string; close(): Promise<void> }> {
  const noop = async () => undefined;
  if (process.env.TABLE_NAME && !process.env.DYNAMODB_ENDPOINT)
    return { target: `AWS table ${process.env.TABLE_NAME}`, close: noop };
  if (process.env.TABLE_NAME && process.env.DYNAMODB_ENDPOINT) {
    return { target: `table ${process.env.TABLE_NAME} at ${process.env.DYNAMODB_ENDPOINT}`, close: noop };
  }
  const running = recordedLocalEndpoint();
  if (running && (await reachable(running))) {
    useLocalTable(running, LOCAL_TABLE);
    return { target: `local server database (${running})`, close: noop };
  }
  const dynamo = await startDynamo({ dataDir: DATA_DIR });
  useLocalTable(dynamo.endpoint, LOCAL_TABLE);
  await ensureTable(dynamo.endpoint, LOCAL_TABLE);
  return { target: `local database in ${DATA_DIR}`, close: () => dynamo.stop() };
}
