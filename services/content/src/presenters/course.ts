import type { CourseDoc } from '../models/course';

export const presentCourseSummary = (c: CourseDoc) => ({
  id: String(c._id),
  title: c.title,
  description: c.description,
  price: c.price,
  duration: c.duration,
  level: c.level,
  isPublished: c.isPublished,
  status: c.status,
  createdAt: new Date(c.createdAt).toISOString(),
  updatedAt: new Date(c.updatedAt).toISOString(),
});
