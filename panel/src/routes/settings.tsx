/**
 * Settings: General (the value settings, feature flags, the Telegram relay credentials, backups) and Models
 * & agents (`?tab=models`: model providers and their keys, the routing, what the runtime starts
 * and what `gaffer doctor` finds).
 */
import { DoctorTable } from '../components/models/doctor-findings';
import { ModelProviders } from '../components/models/model-providers';
import { ModelRouting } from '../components/models/model-routing';
import { Backups } from '../components/settings/backups';
import { FeatureFlags } from '../components/settings/feature-flags';
import { TelegramCredentials } from '../components/settings/telegram-credentials';
import { ValueSettings } from '../components/settings/value-settings';
import { Page, Section } from '../components/ui/page';
import { TabLinks, useTab } from '../components/ui/tabs';

const TABS = ['general', 'models'] as const;

export default function SettingsPage() {
  const tab = useTab(TABS);
  return (
    <Page title="Settings">
      <TabLinks tabs={TABS} labels={{ general: 'General', models: 'Models & agents' }} current={tab} />
      {tab === 'general' ? (
        <>
          <ValueSettings />
          <FeatureFlags />
          <TelegramCredentials />
          <Backups />
        </>
      ) : (
        <>
          <ModelProviders />
          <ModelRouting />
          <Section
            title="Agent CLIs"
            description="What the runtime starts for each agent and the limits its runs get, each built-in CLI on the server's PATH against the version its template is tested with, and whether the agent sandbox can see the one in use."
          >
            <DoctorTable areas={['runtime', 'agent_cli', 'git']} />
          </Section>
        </>
      )}
    </Page>
  );
}
