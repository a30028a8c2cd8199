// Placeholder: the screen lands with the licensing work.
export default function SecurityPage() {
  return <h1>Security & Analytics</h1>;
}
