/** An Error message that would run, load or render as markup if a report let it through. */
export const HOSTILE =
  '<script>window.pwned=1</script><img src=x onerror="window.pwned=2"> ``` </details> **bold** [link](javascript:alert(1))';
