/** Every TypeORM entity of the service, listed explicitly (ES modules rule out glob loading). */
export const entities: Array<new () => object> = [];
