# One image for both processes: `assay api` and `assay worker` (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/assay.js"]
CMD ["api"]
