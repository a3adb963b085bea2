/** The tray icon: counts in the tooltip, pause/resume, open the library folder, quit. */
import path from 'node:path';
import { Menu, nativeImage, Tray } from 'electron';
import { TrayPresenter, type TrayItemId, type TrayState } from './tray-menu';

export interface TrayActions {
  onShow(): void;
  onItem(id: TrayItemId): void;
}

export function createTray(appRoot: string, actions: TrayActions): { update(state: TrayState): void } {
  // macOS: a black-and-alpha "Template" image that the menu bar recolours for light and dark.
  const file = process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
  const image = nativeImage.createFromPath(path.join(appRoot, 'resources', file));
  if (process.platform === 'darwin') image.setTemplateImage(true);
  const tray = new Tray(image);
  tray.on('click', () => actions.onShow());
  const presenter = new TrayPresenter({
    setToolTip: (text) => tray.setToolTip(text),
    setMenu: (items) =>
      tray.setContextMenu(
        Menu.buildFromTemplate(
          items.map((item) =>
            'separator' in item ? { type: 'separator' as const } : { label: item.label, click: () => actions.onItem(item.id) },
          ),
        ),
      ),
  });
  return { update: (state) => presenter.update(state) };
}
