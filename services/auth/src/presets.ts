import { z } from 'zod';
import { ROLES, type Role } from '@portal/contracts';
import type { AuthConfig } from './config';

export interface PresetAccount {
  email: string;
  password: string;
  fullName: string;
  /** Name parts, when the full name is not in the official order (the presets' names are «Имя Фамилия»). */
  lastName?: string;
  firstName?: string;
  middleName?: string;
  role: Role;
  description: string;
  guest?: boolean;
}

/** Demo accounts, visible in the client by design of the spec. Turn off with SEED_PRESETS=false. */
export const DEFAULT_PRESETS: PresetAccount[] = [
  {
    email: 'admin@portal.local',
    password: 'Portal-Glav-2026',
    fullName: 'Анна Смирнова',
    lastName: 'Смирнова',
    firstName: 'Анна',
    role: 'ADMIN',
    description: 'Полный доступ: курсы, CRM, пользователи и журнал действий',
  },
  {
    email: 'manager@portal.local',
    password: 'Portal-Men-2026',
    fullName: 'Михаил Орлов',
    lastName: 'Орлов',
    firstName: 'Михаил',
    role: 'MANAGER',
    description: 'Управляет пользователями и организациями',
  },
  {
    email: 'curator@portal.local',
    password: 'Portal-Kur-2026',
    fullName: 'Екатерина Волкова',
    lastName: 'Волкова',
    firstName: 'Екатерина',
    role: 'CURATOR',
    description: 'Создаёт курсы, уроки и квизы, работает с CRM',
  },
  {
    email: 'client@portal.local',
    password: 'Portal-Kli-2026',
    fullName: 'Дмитрий Соколов',
    lastName: 'Соколов',
    firstName: 'Дмитрий',
    role: 'CLIENT',
    description: 'Проходит курсы и квизы, смотрит результаты',
  },
  {
    email: 'candidate@portal.local',
    password: 'Portal-Kan-2026',
    fullName: 'Ольга Кузнецова',
    lastName: 'Кузнецова',
    firstName: 'Ольга',
    role: 'CANDIDATE',
    description: 'Кандидат: проходит обучение и тесты',
  },
  {
    email: 'guest@portal.local',
    password: 'Portal-Gost-2026',
    fullName: 'Гость Демо',
    lastName: 'Демо',
    firstName: 'Гость',
    role: 'CANDIDATE',
    description: 'Демо-доступ без регистрации',
    guest: true,
  },
];

const presetSchema = z.array(
  z.object({
    email: z.email(),
    password: z.string().min(8),
    fullName: z.string().min(1),
    lastName: z.string().optional(),
    firstName: z.string().optional(),
    middleName: z.string().optional(),
    role: z.enum(ROLES),
    description: z.string().default(''),
    guest: z.boolean().optional(),
  }),
);

export const presetAccounts = (config: AuthConfig): PresetAccount[] =>
  config.PRESET_ACCOUNTS ? presetSchema.parse(JSON.parse(config.PRESET_ACCOUNTS)) : DEFAULT_PRESETS;
