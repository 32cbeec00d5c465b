import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/http/errors.js';
import { credentialsChange } from './credential-rules.js';
import { scrub } from './telegram-client.js';
import { escapeHtml, TELEGRAM_TEXT_MAX, telegramText } from './telegram-message.js';

describe('chat relay rules', () => {
  it('sets both, clears both, refuses exactly one', () => {
    expect(credentialsChange(' 123:abc ', ' -100 ')).toEqual({
      action: 'set',
      botToken: '123:abc',
      chatId: '-100',
    });
    expect(credentialsChange('', '  ')).toEqual({ action: 'clear' });
    for (const [token, chat] of [
      ['123:abc', ''],
      ['', '-100'],
    ]) {
      try {
        credentialsChange(token!, chat!);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ statusCode: 400, code: 'credentials_incomplete' });
      }
    }
  });

  it('escapes HTML in every dynamic value', () => {
    expect(escapeHtml('<b>&"</b>')).toBe('&lt;b&gt;&amp;&quot;&lt;/b&gt;');
    const text = telegramText({
      type: 'alert',
      priority: 'urgent',
      subject: '<script>x</script>',
      body: 'a & b <i>',
      sender: 'ceo<>',
      recipients: ['be-dev-1'],
      ackRequired: true,
      escalation: 2,
    });
    expect(text).toContain('<b>&lt;script&gt;x&lt;/script&gt;</b>');
    expect(text).toContain('a &amp; b &lt;i&gt;');
    expect(text).toContain('From ceo&lt;&gt; to be-dev-1');
    expect(text).toContain('URGENT · ack required · re-escalation 2');
    expect(text).not.toContain('<script>');
  });

  it('keeps a message within Telegram’s limit', () => {
    const text = telegramText({
      type: 'broadcast',
      priority: 'normal',
      subject: 's',
      body: '<'.repeat(10_000),
      sender: 'ceo',
      recipients: [],
      ackRequired: false,
      escalation: 0,
    });
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_MAX);
    expect(text).toMatch(/(&lt;)+…$/);
  });

  it('scrubs a secret from any text', () => {
    expect(scrub('GET http://x/bot123:abc/sendMessage failed for 123:abc', '123:abc')).toBe(
      'GET http://x/bot[redacted]/sendMessage failed for [redacted]',
    );
  });
});
