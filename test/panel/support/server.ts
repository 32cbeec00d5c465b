/**
 * A real Gaffer for the browser tests: the built panel (built by the integration suites' global setup),
 * the whole app listening on a free port with a temp data dir (the listening company of the e2e
 * suites, project `shop` on a bare git remote), a CEO API client and fresh login links.
 */
import type { Config } from '../../../src/config.js';
import { createSettings, type FlagKey } from '../../../src/modules/settings/index.js';
import { loginUrl } from '../../../src/platform/http/auth/login-page.js';
import { type ApiCall, type ListeningCompany, startListeningCompany } from '../../support/e2e.js';

export interface PanelServer extends ListeningCompany {
  /** A fresh login link (token in the fragment), as `gaffer login-url` prints it. */
  loginUrl(): string;
  /** JSON calls as the CEO (static token), to set up what the browser then sees; `{}` for an empty body. */
  api: ApiCall<Record<string, unknown>>;
}

/** `flags` are persisted before the app boots, so they are in force (as after an operator's restart). */
export async function startPanelServer(
  config: Partial<Config> = {},
  options: { flags?: readonly FlagKey[] } = {},
): Promise<PanelServer> {
  const company = await startListeningCompany(
    'gaffer-panel-',
    { dispatchEnabled: false, ...config },
    () => {},
    async (platform) => {
      if (!options.flags?.length) return;
      const settings = await createSettings({ platform, deps: {} });
      for (const flag of options.flags) await settings.service.set(flag, true, 'ceo');
    },
  );
  return {
    ...company,
    loginUrl: () => loginUrl(company.platform.config, company.platform.secret, new Date()),
    api: async (method, path, body) => {
      const response = await fetch(`${company.base}${path}`, {
        method,
        headers: { ...company.ceoHeaders, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : {} };
    },
  };
}
