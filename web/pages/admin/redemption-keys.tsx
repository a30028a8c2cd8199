// Placeholder: the screen lands with the licensing work.
export default function RedemptionKeysPage() {
  return <h1>Redemption Codes</h1>;
}
