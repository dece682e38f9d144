import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { noContentSpec } from './noContent';
import { pageOf, pageQuery, timestamp } from './common';

export const chatMessage = z.strictObject({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: z.string().check(z.maxLength(200_000)),
  created_at: z.optional(timestamp),
  metadata: z.optional(z.record(z.string(), z.unknown())),
});

export const chat = withMeta(
  z.object({
    id: z.uuid(),
    user_id: z.uuid(),
    title: z.string(),
    messages: z.array(chatMessage),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  { id: 'Chat' },
);
export const chatListItem = withMeta(
  z.object({ id: z.uuid(), title: z.string(), message_count: z.int(), created_at: timestamp, updated_at: timestamp }),
  { id: 'ChatListItem' },
);

const resultFields = {
  id: z.uuid(),
  user_id: z.uuid(),
  chat_id: z.nullable(z.uuid()),
  chat_title: z.nullable(z.string()),
  tool_name: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  storage_format: z.literal('json'),
  file_size: z.int(),
  created_at: timestamp,
};
export const storedResult = withMeta(z.object({ ...resultFields, result_data: z.unknown() }), { id: 'StoredResult' });
export const storedResultListItem = withMeta(z.object(resultFields), { id: 'StoredResultListItem' });

const chatIdParams = z.strictObject({ chat_id: z.uuid() });
const tag = 'Chats and results';

export const storageEndpoints = {
  createChat: defineEndpoint({
    operationId: 'createChat',
    method: 'POST',
    path: '/api/v1/chats',
    summary: 'Create a chat',
    tag,
    auth: 'api_key',
    idempotent: true,
    successStatus: 201,
    body: z.strictObject({ title: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(255))) }),
    response: chat,
  }),
  listChats: defineEndpoint({
    operationId: 'listChats',
    method: 'GET',
    path: '/api/v1/chats',
    summary: 'List your chats (soft-deleted ones excluded)',
    tag,
    auth: 'api_key',
    query: z.strictObject({ ...pageQuery, sort_by: z._default(z.enum(['updated_at', 'created_at']), 'updated_at') }),
    response: pageOf(chatListItem),
  }),
  getChat: defineEndpoint({
    operationId: 'getChat',
    method: 'GET',
    path: '/api/v1/chats/{chat_id}',
    summary: 'A chat with all its messages',
    tag,
    auth: 'api_key',
    params: chatIdParams,
    response: chat,
  }),
  updateChat: defineEndpoint({
    operationId: 'updateChat',
    method: 'PUT',
    path: '/api/v1/chats/{chat_id}',
    summary: 'Rename a chat and/or replace its messages',
    tag,
    auth: 'api_key',
    params: chatIdParams,
    body: withMeta(
      z
        .strictObject({
          title: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(255))),
          messages: z.optional(z.array(chatMessage).check(z.maxLength(10_000))),
        })
        .check(
          z.refine((b) => b.title !== undefined || b.messages !== undefined, {
            message: 'Send title, messages or both',
          }),
        ),
      { anyOf: [{ required: ['title'] }, { required: ['messages'] }] },
    ),
    response: chat,
  }),
  deleteChat: defineEndpoint({
    operationId: 'deleteChat',
    method: 'DELETE',
    path: '/api/v1/chats/{chat_id}',
    summary: 'Soft-delete a chat',
    tag,
    auth: 'api_key',
    params: chatIdParams,
    ...noContentSpec,
  }),
  listResults: defineEndpoint({
    operationId: 'listResults',
    method: 'GET',
    path: '/api/v1/results',
    summary: 'List your stored tool results',
    tag,
    auth: 'api_key',
    query: z.strictObject({
      ...pageQuery,
      sort_by: z._default(z.enum(['created_at', 'file_size']), 'created_at'),
      tool_name: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
      chat_id: z.optional(z.uuid()),
    }),
    response: pageOf(storedResultListItem),
  }),
  getResult: defineEndpoint({
    operationId: 'getResult',
    method: 'GET',
    path: '/api/v1/results/{result_id}',
    summary: 'A stored result with its full data',
    tag,
    auth: 'api_key',
    params: z.strictObject({ result_id: z.uuid() }),
    response: storedResult,
  }),
};
