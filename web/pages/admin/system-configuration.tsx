export default function SystemConfigurationPage() {
  return <div>SystemConfigurationPage</div>;
}
