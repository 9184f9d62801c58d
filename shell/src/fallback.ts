import type { LifeCycles } from 'single-spa';

/**
 * What a remote that failed to load shows: a contained message with a retry button, in plain DOM
 * (the remote's React code is exactly what is missing). The rest of the page keeps working.
 */
export function fallbackLifecycles(name: string, onRetry: () => void): LifeCycles {
  let el: HTMLElement | null = null;
  return {
    bootstrap: async () => undefined,
    mount: async () => {
      el = document.createElement('div');
      el.id = `app-${name}`;
      el.setAttribute('role', 'alert');
      el.className = 'remote-error';
      el.style.cssText =
        'max-width:640px;margin:48px auto;padding:24px;border-radius:10px;border:1px solid #c62828;background:rgba(198,40,40,.08);font-family:system-ui,sans-serif;';
      const title = document.createElement('p');
      title.style.cssText = 'margin:0 0 12px;font-weight:600;';
      title.textContent = 'Не удалось загрузить раздел. Проверьте подключение и попробуйте снова.';
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Повторить';
      button.style.cssText =
        'height:36px;padding:0 16px;border-radius:8px;border:0;background:#4f46e5;color:#fff;font-weight:600;cursor:pointer;';
      button.addEventListener('click', onRetry);
      el.append(title, button);
      (document.getElementById('portal-main') ?? document.body).appendChild(el);
    },
    unmount: async () => {
      el?.remove();
      el = null;
    },
  };
}
