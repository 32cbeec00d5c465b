/** `npm run docs:config`: rewrites the configuration table of docs/configuration.md from src/config.ts. */
import { readFileSync, writeFileSync } from 'node:fs';
import { configMarkdownTable } from '../src/config.js';

const path = new URL('../docs/configuration.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const section = /(<!-- config-table:start[^>]*-->\n)[\s\S]*?(\n<!-- config-table:end -->)/;
if (!section.test(readme)) throw new Error('docs/configuration.md has no config-table markers');
writeFileSync(path, readme.replace(section, `$1${configMarkdownTable()}$2`));
