import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '#shared/config/config';

/**
 * The service's own public base URL, for the links it hands out (checkout, exports, the OpenAPI
 * servers entry). Configured (PUBLIC_BASE_URL: the local runtime's own address, or an operator's
 * custom domain), else API Gateway's own record of the domain and stage it was called on. Never the
 * caller's Host or X-Forwarded-* headers: those would let one caller choose where links point.
 */
export function baseUrlOf(event: APIGatewayProxyEvent): string {
  const configured = config().publicBaseUrl;
  if (configured) return configured.replace(/\/+$/, '');
  const domain = event.requestContext?.domainName ?? 'localhost';
  // The local server names its own listening address; it speaks plain HTTP.
  const proto = domain.startsWith('localhost:') || domain.startsWith('127.0.0.1:') ? 'http' : 'https';
  // execute-api domains carry the stage in the path; a custom domain maps it away.
  const stage = domain.includes('.execute-api.') && event.requestContext?.stage ? `/${event.requestContext.stage}` : '';
  return `${proto}://${domain}${stage}/api/v1`;
}
