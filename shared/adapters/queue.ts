/** The pipeline queue. AWS: SQS with a dead-letter queue. Local: in-process, same event shape. */
export interface QueueMessage {
  body: string;
  delaySeconds?: number;
}

export interface QueuePort {
  send(messages: QueueMessage[]): Promise<void>;
}
