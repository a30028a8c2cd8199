/** Placeholder: the screen is being built. */
export default function ScriptsPageEditorPage() {
  return null;
}
