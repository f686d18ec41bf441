import { defineConfig } from 'vitest/config';
import { apiProjects } from './vitest.projects.js';

export default defineConfig({ test: { projects: apiProjects } });
