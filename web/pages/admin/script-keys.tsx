// Placeholder: the screen lands with the licensing work.
export default function ScriptKeysPage() {
  return <h1>Script Keys</h1>;
}
