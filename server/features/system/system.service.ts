import type { AppContext } from '../../context.ts';

export async function seedSystemConfiguration(_ctx: AppContext): Promise<void> {}
