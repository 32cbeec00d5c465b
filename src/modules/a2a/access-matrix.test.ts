/** The A2A access matrix (reference C §2.4): every rule, allowed and denied pairs, and the route hints. */
import { describe, expect, it } from 'vitest';
import type { Role } from '../../platform/http/auth/identity.js';
import { mayInitiate, mayMessage, type Party, pathTo } from './access-matrix.js';

const p = (role: Role, team: string | null = null): Party => ({ role, team });
const ceo = p('ceo', 'board');
const po = p('product_owner', 'board');
const hom = p('head_marketing', 'board');
const auditor = p('auditor', 'board');
const mainPm = p('main_pm', 'main_pm');
const prompter = p('prompter', 'board');
const secretary = p('secretary', 'board');
const system = p('system', 'system');
const beDev = p('developer', 'backend');
const beDev2 = p('developer', 'backend');
const beQa = p('qa', 'backend');
const beDoc = p('documenter', 'backend');
const bePm = p('cell_pm', 'backend');
const beReviewer = p('pr_reviewer', 'backend');
const feDev = p('developer', 'frontend');
const feQa = p('qa', 'frontend');
const fePm = p('cell_pm', 'frontend');
const uxPm = p('cell_pm', 'ux_ui');
const rootReviewer = p('pr_reviewer', 'board');

type Row = [string, Party, Party, boolean];

const table: Row[] = [
  // CEO: anyone except the no-comms roles.
  ['ceo → developer', ceo, beDev, true],
  ['ceo → cell_pm', ceo, fePm, true],
  ['ceo → main_pm', ceo, mainPm, true],
  ['ceo → product_owner', ceo, po, true],
  ['ceo → auditor', ceo, auditor, true],
  ['ceo → pr_reviewer', ceo, rootReviewer, true],
  ['ceo ↛ prompter', ceo, prompter, false],
  ['ceo ↛ secretary', ceo, secretary, false],
  // Nobody initiates to the CEO.
  ['main_pm ↛ ceo', mainPm, ceo, false],
  ['product_owner ↛ ceo', po, ceo, false],
  ['developer ↛ ceo', beDev, ceo, false],
  ['cell_pm ↛ ceo', bePm, ceo, false],
  ['auditor ↛ ceo', auditor, ceo, false],
  // Board → board roles (with the auditor) + main_pm.
  ['product_owner → head_marketing', po, hom, true],
  ['head_marketing → product_owner', hom, po, true],
  ['product_owner → auditor', po, auditor, true],
  ['head_marketing → main_pm', hom, mainPm, true],
  ['product_owner ↛ cell_pm', po, bePm, false],
  ['head_marketing ↛ developer', hom, beDev, false],
  ['product_owner ↛ pr_reviewer', po, rootReviewer, false],
  // main_pm → PMs, board, auditor.
  ['main_pm → cell_pm', mainPm, uxPm, true],
  ['main_pm → main_pm', mainPm, mainPm, true],
  ['main_pm → product_owner', mainPm, po, true],
  ['main_pm → head_marketing', mainPm, hom, true],
  ['main_pm → auditor', mainPm, auditor, true],
  ['main_pm ↛ developer', mainPm, beDev, false],
  ['main_pm ↛ pr_reviewer', mainPm, rootReviewer, false],
  ['main_pm ↛ secretary', mainPm, secretary, false],
  // cell_pm → own cell, other PMs, main_pm.
  ['cell_pm → own developer', bePm, beDev, true],
  ['cell_pm → own qa', bePm, beQa, true],
  ['cell_pm → own documenter', bePm, beDoc, true],
  ['cell_pm → own pr_reviewer', bePm, beReviewer, true],
  ['cell_pm → other cell_pm', bePm, fePm, true],
  ['cell_pm → main_pm', bePm, mainPm, true],
  ['cell_pm ↛ other cell developer', bePm, feDev, false],
  ['cell_pm ↛ product_owner', bePm, po, false],
  ['cell_pm ↛ auditor', bePm, auditor, false],
  // Cell members → same cell only.
  ['developer → same-cell developer', beDev, beDev2, true],
  ['developer → same-cell qa', beDev, beQa, true],
  ['qa → same-cell documenter', beQa, beDoc, true],
  ['documenter → same-cell cell_pm', beDoc, bePm, true],
  ['developer → same-cell pr_reviewer', beDev, beReviewer, true],
  ['developer ↛ other-cell developer', beDev, feDev, false],
  ['qa ↛ other-cell qa', beQa, feQa, false],
  ['developer ↛ other-cell cell_pm', beDev, fePm, false],
  ['developer ↛ main_pm', beDev, mainPm, false],
  ['developer ↛ org pr_reviewer', beDev, rootReviewer, false],
  // pr_reviewer → cell_pm / main_pm only.
  ['pr_reviewer → any cell_pm', rootReviewer, uxPm, true],
  ['cell pr_reviewer → its cell_pm', beReviewer, bePm, true],
  ['pr_reviewer → main_pm', rootReviewer, mainPm, true],
  ['pr_reviewer ↛ developer (own cell)', beReviewer, beDev, false],
  ['pr_reviewer ↛ pr_reviewer', beReviewer, rootReviewer, false],
  ['pr_reviewer ↛ product_owner', rootReviewer, po, false],
  // Auditor never initiates.
  ['auditor ↛ main_pm', auditor, mainPm, false],
  ['auditor ↛ product_owner', auditor, po, false],
  ['auditor ↛ developer', auditor, beDev, false],
  // No-comms roles and the system.
  ['prompter ↛ main_pm', prompter, mainPm, false],
  ['secretary ↛ product_owner', secretary, po, false],
  ['system ↛ main_pm', system, mainPm, false],
  ['ceo ↛ system', ceo, system, false],
];

describe('mayMessage', () => {
  it.each(table)('%s', (_name, sender, recipient, allowed) => {
    const decision = mayMessage(sender, recipient);
    expect(decision.allowed).toBe(allowed);
    expect(mayInitiate(sender, recipient)).toBe(allowed);
    if (!decision.allowed) {
      expect(decision.reason.length).toBeGreaterThan(0);
      expect(decision.route_hint.length).toBeGreaterThan(0);
    }
  });

  it('routes a developer to another cell through both cell PMs', () => {
    expect(mayMessage(beDev, feDev)).toMatchObject({
      allowed: false,
      route_hint: 'developer(backend) → cell_pm(backend) → cell_pm(frontend) → developer(frontend)',
    });
  });

  it('routes a developer to the main PM and the board through its cell PM', () => {
    expect(mayMessage(beDev, mainPm)).toMatchObject({
      route_hint: 'developer(backend) → cell_pm(backend) → main_pm',
    });
    expect(mayMessage(beQa, po)).toMatchObject({
      route_hint: 'qa(backend) → cell_pm(backend) → main_pm → product_owner',
    });
  });

  it('routes the board to a developer down through the main PM and the cell PM', () => {
    expect(mayMessage(po, beDev)).toMatchObject({
      route_hint: 'product_owner → main_pm → cell_pm(backend) → developer(backend)',
    });
  });

  it('points anyone writing to the CEO at task escalation', () => {
    const decision = mayMessage(beDev, ceo);
    expect(decision.allowed).toBe(false);
    if (decision.allowed) return;
    expect(decision.route_hint).toBe(
      'developer(backend) → cell_pm(backend) → main_pm → ceo (by task escalation; the CEO opens the conversation)',
    );
    expect(mayMessage(po, ceo)).toMatchObject({ route_hint: expect.stringMatching(/^product_owner → ceo/) });
  });

  it('gives the auditor and the no-comms roles a hint that names no relay chain', () => {
    expect(mayMessage(auditor, mainPm)).toMatchObject({ route_hint: expect.stringContaining('auditor') });
    expect(mayMessage(ceo, secretary)).toMatchObject({ route_hint: 'none: secretary has no A2A' });
    expect(mayMessage(prompter, mainPm)).toMatchObject({ route_hint: 'none: this role has no A2A' });
  });
});

describe('pathTo', () => {
  it('takes the shortest chain of allowed hops', () => {
    // A PR reviewer may write to any cell PM, so it goes straight to the frontend PM.
    expect(pathTo(beReviewer, feDev)).toEqual([
      'pr_reviewer(backend)',
      'cell_pm(frontend)',
      'developer(frontend)',
    ]);
  });

  it('is null when the recipient can be reached by nobody', () => {
    expect(pathTo(beDev, ceo)).toBeNull();
    expect(pathTo(mainPm, secretary)).toBeNull();
  });
});
