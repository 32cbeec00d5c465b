/** The collision map: a task's declared surface and overlapping same-parent siblings. */
import type { Platform } from '../../platform/context.js';

export class CollisionMapService {
  constructor(readonly platform: Platform) {}
}
