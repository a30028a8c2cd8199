/** A delivery's or destination's last error: two lines at most (the whole text in the tooltip). */
export function LastError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="mt-1 line-clamp-2 break-words text-xs text-red-300" title={text}>
      <span className="text-muted-foreground">Last error: </span>
      {text}
    </p>
  );
}
