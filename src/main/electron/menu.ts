/** Hands Circa's menu (app-menu.ts, plain data) to Electron and routes its commands to main. */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import { appMenuTemplate, type MenuCommand, type MenuContext, type MenuItemSpec } from './app-menu';

function toElectron(item: MenuItemSpec, onCommand: (command: MenuCommand) => void): MenuItemConstructorOptions {
  if ('separator' in item) return { type: 'separator' };
  if ('submenu' in item)
    return { label: item.label, role: item.role, submenu: item.submenu.map((i) => toElectron(i, onCommand)) };
  if ('command' in item)
    return { id: item.command, label: item.label, accelerator: item.accelerator, click: () => onCommand(item.command) };
  return { role: item.role, ...(item.label ? { label: item.label } : {}) };
}

export function installAppMenu(ctx: MenuContext, onCommand: (command: MenuCommand) => void): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(ctx).map((i) => toElectron(i, onCommand))));
}
