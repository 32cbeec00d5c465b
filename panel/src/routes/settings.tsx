/** Settings: the general value settings, feature flags and the Telegram relay credentials. */
import { FeatureFlags } from '../components/settings/feature-flags';
import { TelegramCredentials } from '../components/settings/telegram-credentials';
import { ValueSettings } from '../components/settings/value-settings';
import { Page } from '../components/ui/page';

export default function SettingsPage() {
  return (
    <Page title="Settings">
      <ValueSettings />
      <FeatureFlags />
      <TelegramCredentials />
    </Page>
  );
}
