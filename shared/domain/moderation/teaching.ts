/**
 * What a community's moderators teach: examples through the API (and the console), every undo as the
 * wrongly removed message, and forgetting it all. A spam example also tells the deployment that this
 * owner confirmed the message as spam (shared_spam: it counts elsewhere only when owners agree).
 */
import { now } from '#shared/adapters/ports';
import { confirmSharedSpam } from '#shared/store/sharedSpamRepo';
import {
  forgetTextModel,
  loadTextModel,
  ModelTooLargeError,
  saveTextModel,
  type StoredModel,
} from '#shared/store/textModelRepo';
import { ConflictError, UnprocessableError } from '#shared/domain/errors';
import { requireCommunity } from './communityReads';
import { spamFingerprint } from './detector/detector';
import { readMessage } from './detector/reading';
import { combine, emptyModel, teach, type Label, type TextModel } from './detector/textModel';

export interface Example {
  text: string;
  label: Label;
}

const MAX_ATTEMPTS = 8;
const CONFIRMATIONS_AT_ONCE = 25;

/** Saved, or false when another teacher wrote first; a model grown past what the table can hold is the caller's to reset. */
async function save(communityId: string, model: TextModel, stored: StoredModel): Promise<boolean> {
  try {
    return await saveTextModel(communityId, model, stored, now().toISOString());
  } catch (err) {
    if (!(err instanceof ModelTooLargeError)) throw err;
    throw new UnprocessableError(
      'invalid_state',
      'The community has been taught more than its model can hold: forget it (DELETE .../examples) and teach it again.',
    );
  }
}

/** Adds the examples to the community's model; another teacher writing at the same moment is waited out. */
export async function teachCommunity(community: { id: string; userId: string }, examples: Example[]) {
  const readings = examples.map((e) => ({ reading: readMessage(e.text), label: e.label }));
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = await loadTextModel(community.id);
    // The cached model is shared with readers: teach a copy (combining with nothing copies every count).
    const model = teach(combine(emptyModel(), stored.model), readings);
    if (await save(community.id, model, stored)) {
      const at = now().getTime();
      const spam = [...new Set(readings.filter((r) => r.label === 'spam').map((r) => spamFingerprint(r.reading)))];
      // A few confirmations at a time: a 500-example call must not fire 500 writes at once.
      for (let i = 0; i < spam.length; i += CONFIRMATIONS_AT_ONCE)
        await Promise.all(
          spam.slice(i, i + CONFIRMATIONS_AT_ONCE).map((f) => confirmSharedSpam(f, community.userId, at)),
        );
      return { accepted: examples.length, examples_total: model.examples[0] + model.examples[1] };
    }
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
  }
  throw new ConflictError('concurrent_update', 'The community is being taught by another request: try again.');
}

/** POST .../communities/{id}/examples */
export async function teachExamples(userId: string, communityId: string, examples: Example[]) {
  return teachCommunity(await requireCommunity(userId, communityId), examples);
}

/** DELETE .../communities/{id}/examples */
export async function forgetExamples(userId: string, communityId: string): Promise<void> {
  await requireCommunity(userId, communityId);
  await forgetTextModel(communityId);
}
