import type { AppContext } from '../../context.ts';

export async function seedScriptsPageConfig(_ctx: AppContext): Promise<void> {}
