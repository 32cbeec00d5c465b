/**
 * Retrieval-augmented answers: retrieve the best chunks for the question, hand them to the caller's
 * routed model as numbered context, and have it answer citing [n]. The citations are the context
 * items the answer names. No routed model: the providers' 409 `no_model_provider` passes through;
 * a model that does not answer in time: 504 `rag_timeout`.
 */
import { AppError } from '../../platform/http/errors.js';
import { ModelCallError, type ModelClient } from '../../platform/llm/index.js';
import type { ChunkHit } from './search.js';

/** Longest context handed to the model, in characters. */
export const CONTEXT_MAX_CHARS = 12_000;

export const RAG_SYSTEM_PROMPT =
  "You answer questions about the company's own knowledge: its documents, journals, tasks and review " +
  'findings. Use only the numbered context given with the question. Cite every statement you take ' +
  'from it with its number in square brackets, like [1] or [2][3]. If the context does not answer ' +
  'the question, say so plainly instead of guessing.';

export interface Citation {
  source: string;
  ref: string;
  title: string;
  url: string | null;
}

export interface RagAnswer {
  answer: string;
  citations: Citation[];
  context_used: { chunks: number; chars: number };
}

/** The numbered context blocks, within CONTEXT_MAX_CHARS (pure). */
export function contextOf(hits: ChunkHit[]): { text: string; used: ChunkHit[] } {
  const blocks: string[] = [];
  const used: ChunkHit[] = [];
  let chars = 0;
  for (const hit of hits) {
    const block = `[${used.length + 1}] ${hit.title} (${hit.source} ${hit.ref})\n${hit.text}`;
    if (chars + block.length > CONTEXT_MAX_CHARS && used.length > 0) break;
    blocks.push(block.slice(0, CONTEXT_MAX_CHARS));
    used.push(hit);
    chars += block.length;
  }
  return { text: blocks.join('\n\n'), used };
}

/** The context items the answer cites by number, in order of first citation (pure). */
export function citationsOf(answer: string, used: ChunkHit[]): Citation[] {
  const cited: Citation[] = [];
  const seen = new Set<number>();
  for (const match of answer.matchAll(/\[(\d+)\]/g)) {
    const n = Number(match[1]);
    const hit = used[n - 1];
    if (!hit || seen.has(n)) continue;
    seen.add(n);
    cited.push({ source: hit.source, ref: hit.ref, title: hit.title, url: hit.url });
  }
  return cited;
}

export async function answerWith(
  client: ModelClient,
  question: string,
  hits: ChunkHit[],
  timeoutMs: number,
): Promise<RagAnswer> {
  const { text, used } = contextOf(hits);
  const prompt = used.length
    ? `Context:\n\n${text}\n\nQuestion: ${question}`
    : `Context: (nothing in the company's knowledge matched)\n\nQuestion: ${question}`;
  let reply: Awaited<ReturnType<ModelClient['complete']>>;
  try {
    reply = await client.complete(
      { system: RAG_SYSTEM_PROMPT, messages: [{ role: 'user', content: prompt }], maxTokens: 1024 },
      { timeoutMs },
    );
  } catch (error) {
    if (error instanceof ModelCallError && error.kind === 'timeout')
      throw new AppError(
        504,
        'rag_timeout',
        `the model did not answer within ${Math.round(timeoutMs / 1000)} s`,
        { provider: client.provider, model: client.model },
        'try again, ask a narrower question, or raise GAFFER_OPTIMAL_RAG_TIMEOUT_SECONDS',
      );
    throw error;
  }
  return {
    answer: reply.text,
    citations: citationsOf(reply.text, used),
    context_used: { chunks: used.length, chars: text.length },
  };
}
