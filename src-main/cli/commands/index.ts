/** Every `cairn` subcommand, in the order `cairn --help` lists them. One file per command. */
import type { CliCommand } from '../command';
import { addCommand } from './add';
import { addFolderCommand } from './add-folder';
import { askCommand } from './ask';
import { editCommand } from './edit';
import { mcpCommand } from './mcp';
import { authorizeCommand } from './authorize';
import { modeCommand } from './mode';
import { modelsCommand } from './models';
import { recoverCommand } from './recover';
import { removeCommand } from './remove';
import { searchCommand } from './search';
import { serveCommand } from './serve';
import { signOutCommand } from './sign-out';
import { statusCommand } from './status';
import { syncCommand } from './sync';
import { testCommand } from './test';

export const COMMANDS: CliCommand[] = [
  statusCommand,
  addFolderCommand,
  addCommand,
  editCommand,
  testCommand,
  authorizeCommand,
  signOutCommand,
  modeCommand,
  syncCommand,
  searchCommand,
  askCommand,
  modelsCommand,
  serveCommand,
  mcpCommand,
  removeCommand,
  recoverCommand,
];
