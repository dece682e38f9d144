import { withPorts } from '#shared/adapters/aws';
import { createApiHandler } from '#shared/http/api';
import { noContent } from '#shared/http/response';
import { storageEndpoints as E } from '#shared/schemas/storage';
import { changeChat, createChat, deleteChat, pageChats, readChat } from '#shared/domain/storage/chats';
import { pageResults, readResult } from '#shared/domain/storage/results';

export const handler = withPorts(
  'storage',
  {},
  createApiHandler(E, {
    createChat: async ({ user, body }) => createChat(user, body.title),
    listChats: async ({ user, query }) => pageChats(user, query),
    getChat: async ({ user, params }) => readChat(user.id, params.chat_id),
    updateChat: async ({ user, params, body }) => changeChat(user.id, params.chat_id, body),
    deleteChat: async ({ user, params }) => {
      await deleteChat(user, params.chat_id);
      return noContent();
    },
    listResults: async ({ user, query }) => pageResults(user.id, query),
    getResult: async ({ user, params }) => readResult(user.id, params.result_id),
  }),
);
