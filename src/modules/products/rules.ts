/**
 * Pure rules of a product's cell routing (each delivery cell maps to at most one project) and
 * who may manage products (PM or above: cell PM, main PM, product owner, auditor, CEO).
 */
import type { Role } from '../../platform/http/auth/identity.js';

export interface CellRoute {
  team: string;
  project_id: string;
}

/** Roles that may create, change and delete products (reference C §3.5 `require_pm_or_above`). */
export const PRODUCT_MANAGER_ROLES: readonly Role[] = [
  'cell_pm',
  'main_pm',
  'product_owner',
  'auditor',
  'ceo',
];

/** Teams named more than once, in order of their second appearance. */
export function duplicateTeams(cells: readonly CellRoute[]): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const { team } of cells) {
    if (seen.has(team) && !duplicates.includes(team)) duplicates.push(team);
    seen.add(team);
  }
  return duplicates;
}
