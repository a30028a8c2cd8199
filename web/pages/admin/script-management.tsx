/** Placeholder: the screen is being built. */
export default function ScriptManagementPage() {
  return null;
}
