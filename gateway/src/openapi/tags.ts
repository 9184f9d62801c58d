/** One tag per service, so a reader sees which service answers a route (and whose logs to read). */
export const TAGS = {
  auth: { name: 'auth', description: 'Сервис auth: вход, сеансы, пароли, справочник пользователей, заявки на роли' },
  content: {
    name: 'content',
    description: 'Сервис content: курсы, модули и уроки, квизы, загруженные файлы, конструктор курсов',
  },
  progress: { name: 'progress', description: 'Сервис progress: прохождение уроков, попытки квизов, результаты' },
  crm: { name: 'crm', description: 'Сервис crm: организации и их контакты' },
  audit: { name: 'audit', description: 'Сервис audit: журнал действий' },
  gateway: { name: 'gateway', description: 'Шлюз: показатели панели, готовность сервисов, этот документ' },
} as const;
