export function ScriptsPage() {
  return <div>ScriptsPage</div>;
}
