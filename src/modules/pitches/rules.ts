/** Pitch statuses, the cells a pitch may need, and the names approval gives what it provisions. */
export const PITCH_CELLS = ['backend', 'frontend', 'ux_ui'] as const;
export type PitchCell = (typeof PITCH_CELLS)[number];

export const PITCH_STATUSES = ['proposed', 'provisioning', 'provisioned', 'rejected'] as const;
export type PitchStatus = (typeof PITCH_STATUSES)[number];

export const PROPOSER_ROLES = ['product_owner', 'head_marketing'] as const;
export const READER_ROLES = ['product_owner', 'head_marketing', 'main_pm', 'ceo', 'auditor'] as const;

/** `<slug>-<cell>` for a pitch spanning several cells, else `<slug>` (reference C §7.12). */
export function projectSlug(slug: string, cell: string, cellCount: number): string {
  return cellCount > 1 ? `${slug}-${cell.replace(/_/g, '-')}` : slug;
}

export function projectName(title: string, cell: string, cellCount: number): string {
  return cellCount > 1 ? `${title} (${cell})` : title;
}
