import { Component, createRef, h, render, type VNode } from 'preact';
import { forwardRef } from 'preact/compat';
import { describe, expect, it } from 'vitest';
import { installRefAsProp } from './preact-ref-as-prop.ts';

// Plain h() calls: this file's JSX would be React's, and the point is Preact's own handling of refs.

/** A component as web/components/ui writes them for React 19: its `ref` prop goes onto its element. */
function PlainButton(props: { ref?: unknown; label: string }) {
  return h('button', { ref: props.ref as never }, props.label);
}

class ClassButton extends Component<{ label: string }> {
  render() {
    return h('button', null, this.props.label);
  }
}

function mount(vnode: VNode<any>): HTMLElement {
  const root = document.body.appendChild(document.createElement('div'));
  render(vnode, root);
  return root;
}

describe('installRefAsProp (the public pages on Preact)', () => {
  it("without it, a function component's ref is its Preact instance, not the element (the /key focus bug)", () => {
    const ref = createRef();
    mount(h(PlainButton, { ref, label: 'Reset devices' }));
    expect(ref.current).not.toBeInstanceOf(HTMLButtonElement);
  });

  it('with it, a function component gets its ref as a prop and points it at its element, as in React 19', () => {
    installRefAsProp();
    const ref = createRef<HTMLButtonElement>();
    const root = mount(h(PlainButton, { ref, label: 'Reset devices' }));
    expect(ref.current).toBe(root.querySelector('button'));
    ref.current?.focus();
    expect(document.activeElement).toBe(ref.current);
  });

  it('leaves a class component its instance, and forwardRef still forwards', () => {
    installRefAsProp();
    const classRef = createRef();
    // Preact's types leave `ref` out of a class component's props; the vnode takes it all the same.
    mount(h(ClassButton, { ref: classRef, label: 'Class' } as { label: string }));
    expect(classRef.current).toBeInstanceOf(ClassButton);

    const forwarded = forwardRef<HTMLButtonElement, { label: string }>((props, ref) =>
      h('button', { ref }, props.label),
    );
    const forwardedRef = createRef<HTMLButtonElement>();
    const root = mount(h(forwarded, { ref: forwardedRef, label: 'Forwarded' }));
    expect(forwardedRef.current).toBe(root.querySelector('button'));
  });
});
