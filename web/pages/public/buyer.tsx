export function BuyerPage() {
  return <div>BuyerPage</div>;
}
