/**
 * Stands in for the `semver` package in the Lambda bundles (infra/bundling.ts, `alias`). Its only
 * user there is aws-xray-sdk-core's patcher for the AWS SDK v2 (`captureAWS`), which checks the v2
 * SDK's version with `semver.gte`; we trace the v3 clients and never call it, yet the full package
 * (28 KiB minified, a tenth of what the hello-world bundle weighs) came with every function.
 * This answers that one question for plain `major.minor.patch` versions and refuses anything else.
 */
const plainVersion = /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/;

function parts(version: string): [number, number, number] {
  const match = plainVersion.exec(version.trim());
  if (!match) throw new TypeError(`Invalid Version: ${version}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function gte(version: string, minimum: string): boolean {
  const [a, b] = [parts(version), parts(minimum)];
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}
