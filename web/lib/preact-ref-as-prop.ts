import { options, type VNode } from 'preact';

/*
 * The public pages run the app's React components on Preact (vite.public.config.ts). The components
 * are written for React 19, where a function component gets its `ref` as a prop and puts it on its
 * element (web/components/ui/button.tsx). Preact 10 keeps a function component's ref for itself and
 * points it at the component's instance, unless the component is wrapped in forwardRef. A Radix trigger
 * `asChild` on a Button then holds no element: closing the dialog threw "triggerRef.current?.focus is
 * not a function" and dropped the focus on <body> (/key's "Reset devices?").
 *
 * installRefAsProp() makes Preact do what React 19 does: every function component gets its ref as a
 * prop. Class components keep theirs (their ref is the instance, in React too); forwardRef and memo
 * components read `props.ref` either way.
 */

/** A class component (its ref is its instance); anything else callable is a function component. */
function isClassComponent(type: VNode['type']): boolean {
  return typeof type === 'function' && typeof type.prototype?.render === 'function';
}

let installed = false;

/** Gives function components their ref as a prop from now on; the public entry calls it before rendering. */
export function installRefAsProp(): void {
  if (installed) return;
  installed = true;
  const previous = options.vnode;
  options.vnode = (vnode) => {
    if (typeof vnode.type === 'function' && !isClassComponent(vnode.type) && vnode.ref) {
      (vnode.props as { ref?: unknown }).ref = vnode.ref;
      vnode.ref = null;
    }
    previous?.(vnode);
  };
}
