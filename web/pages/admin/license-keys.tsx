export default function LicenseKeysPage() {
  return <div>LicenseKeysPage</div>;
}
