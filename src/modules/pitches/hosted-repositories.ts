/**
 * A project repository for an approved pitch on the provisioning forge: created with a first
 * commit (auto_init) under the configured owner; a repository of that name already there is
 * reused. Forge failures become a 502 `forge_unavailable` (forge down, token refused) that leaves
 * the pitch proposed.
 */
import { ForgeError } from '../../platform/forge/index.js';
import { AppError } from '../../platform/http/errors.js';
import type { ProvisioningForge } from './forge-config.js';
import type { ProjectRepository } from './service.js';

export async function hostedRepository(
  forge: ProvisioningForge,
  slug: string,
  description: string,
): Promise<ProjectRepository> {
  const { host } = forge;
  try {
    const made = await host
      .createRepository({ name: slug, description, private: forge.private, autoInit: true })
      .catch(async (error: unknown) => {
        if (!(error instanceof ForgeError) || error.code !== 'already_exists') throw error;
        const existing = await host.getRepository(slug);
        if (!existing) throw error;
        return existing;
      });
    return { gitUrl: made.cloneUrl, provider: host.provider, apiUrl: forge.apiUrl, token: forge.token };
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    throw new AppError(
      502,
      'forge_unavailable',
      `could not create the repository ${host.owner}/${slug} on the ${host.provider} forge: ${error.message}`,
      { forge_code: error.code, owner: host.owner, name: slug },
      'Check the provisioning forge (GET /api/pitches/forge): its API URL, owner and token; then approve again.',
    );
  }
}
