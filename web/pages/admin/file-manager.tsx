/** Placeholder: the screen is being built. */
export default function FileManagerPage() {
  return null;
}
