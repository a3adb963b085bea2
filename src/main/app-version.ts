/** The version the app reports (app.health, the CLI, an export's manifest): a leaf everyone may import. */
export const APP_VERSION = '0.1.0';
