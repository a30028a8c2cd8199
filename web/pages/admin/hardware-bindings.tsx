// Placeholder: the screen lands with the licensing work.
export default function HardwareBindingsPage() {
  return <h1>Hardware Bindings</h1>;
}
