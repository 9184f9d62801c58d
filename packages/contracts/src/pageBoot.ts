/**
 * The shell page's one inline script, run before the first paint: it applies the person's light
 * theme at once (the page is dark until told otherwise), and on the pre-rendered landing it hides
 * the visitor's dark first view from a light-theme visitor or a signed-in one, who see «Загрузка...»
 * until the landing renders for them. The gateway's Content-Security-Policy allows exactly this
 * text, by its hash, and no other inline script. Keys: web-core's `darkMode` and `authToken`.
 */
export const PAGE_BOOT_SCRIPT =
  "try{var s=localStorage,c=document.documentElement.classList;if(s.getItem('darkMode')==='false')c.remove('dark');if(s.getItem('darkMode')==='false'||s.getItem('authToken'))c.add('no-prerender')}catch(e){}";
