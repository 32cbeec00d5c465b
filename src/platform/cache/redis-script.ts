/**
 * A Lua script run on Redis by its SHA1 (EVALSHA), loaded with EVAL the first time and again after
 * a Redis restart empties the script cache (NOSCRIPT). Scripts are what make check-then-write
 * steps atomic: Redis runs each one without interleaving any other command.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export type ScriptArgument = string | number;

export interface RedisScript {
  run(client: Redis, keys: readonly string[], args: readonly ScriptArgument[]): Promise<unknown>;
}

export function redisScript(lua: string): RedisScript {
  const sha = createHash('sha1').update(lua).digest('hex');
  return {
    async run(client, keys, args) {
      try {
        return await client.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return client.eval(lua, keys.length, ...keys, ...args);
      }
    },
  };
}
