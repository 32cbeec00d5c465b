/** Settings: feature flags and the Telegram relay credentials. */
import { FeatureFlags } from '../components/settings/feature-flags';
import { TelegramCredentials } from '../components/settings/telegram-credentials';
import { Page } from '../components/ui/page';

export default function SettingsPage() {
  return (
    <Page title="Settings">
      <FeatureFlags />
      <TelegramCredentials />
    </Page>
  );
}
