// The part of the SQS client the queue adapter uses. sqsQueue.ts imports this module dynamically; a
// dynamic import keeps every export of its target, so naming only these two lets esbuild drop the rest.
export { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
