import { useAwsPorts } from '../../shared/adapters/aws';
import { createApiHandler } from '../../shared/http/api';

useAwsPorts();

// Placeholder until this area's issue lands: the stack and the local server already route to it.
export const handler = createApiHandler([]);
